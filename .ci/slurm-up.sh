#!/usr/bin/env bash
# Start a single-node SLURM cluster on this machine, with accounting (slurmdbd + MariaDB), for
# testing profiles/slurm as shipped. Needs root on Debian 12 (no systemd): installs the packages
# if missing, writes /etc/slurm/slurm.conf and slurmdbd.conf (refusing to replace files it did
# not write), and starts munged, mariadbd, slurmdbd, slurmctld and slurmd by hand. Every PID
# goes to $G2048_SLURM_DIR/pids; .ci/slurm-down.sh stops exactly those processes.
#
# The cluster matches the profile's placeholders: partition `main`, account `g2048`.
set -euo pipefail

DIR=${G2048_SLURM_DIR:-/tmp/g2048-slurm}
MARK="# written by g2048 .ci/slurm-up.sh"
PARTITION=main
ACCOUNT=g2048
DB_PASS=g2048-ci-only

log() { echo "slurm-up: $*" >&2; }
die() {
    log "$*"
    exit 1
}

wait_for() { # wait_for SECONDS DESCRIPTION COMMAND...
    local seconds=$1 what=$2
    shift 2
    for _ in $(seq $((seconds * 4))); do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.25
    done
    die "$what did not come up in $seconds s; logs in $DIR/log"
}

remember() { # remember NAME PIDFILE: record a daemon's PID for slurm-down.sh
    wait_for 20 "$1's pid file" test -s "$2"
    echo "$1 $(cat "$2")" >>"$DIR/pids"
}

[[ $(id -u) == 0 ]] || die "needs root (it writes /etc/slurm and starts system daemons)"
if [[ -s $DIR/pids ]]; then
    die "a cluster started from $DIR may still run; stop it with .ci/slurm-down.sh first"
fi
for conf in /etc/slurm/slurm.conf /etc/slurm/slurmdbd.conf; do
    if [[ -e $conf ]] && ! grep -qxF "$MARK" "$conf"; then
        die "$conf exists and was not written by this script; not touching it"
    fi
done

if ! command -v slurmctld >/dev/null || ! command -v slurmdbd >/dev/null ||
    ! command -v munged >/dev/null || ! command -v mariadbd >/dev/null; then
    log "installing slurm-wlm, slurmdbd, munge, mariadb-server from Debian"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq slurm-wlm slurmdbd munge mariadb-server >/dev/null
fi

rm -rf "$DIR"
mkdir -p "$DIR"/{log,state,spool,mysql}
: >"$DIR/pids"
HOST=$(hostname -s)
NODE=$(slurmd -C | head -1) # NodeName=<host> CPUs=... RealMemory=...

log "munged"
mkdir -p /run/munge
chown munge:munge /run/munge
[[ -s /etc/munge/munge.key ]] || runuser -u munge -- mungekey --create
rm -f /run/munge/munged.pid
runuser -u munge -- munged
remember munged /run/munge/munged.pid

log "mariadbd"
mkdir -p /run/mysqld
chown mysql:mysql /run/mysqld "$DIR/mysql"
mariadb-install-db --user=mysql --datadir="$DIR/mysql" --skip-test-db >"$DIR/log/mariadb-install.log" 2>&1
mariadbd --user=mysql --datadir="$DIR/mysql" --skip-networking \
    --socket=/run/mysqld/mysqld.sock --pid-file="$DIR/mysql/mariadbd.pid" \
    --log-error="$DIR/mysql/mariadbd.log" </dev/null >/dev/null 2>&1 &
remember mariadbd "$DIR/mysql/mariadbd.pid"
wait_for 30 mariadbd mariadb --socket=/run/mysqld/mysqld.sock -e "SELECT 1"
mariadb --socket=/run/mysqld/mysqld.sock -e "
    CREATE USER 'slurm'@'localhost' IDENTIFIED BY '$DB_PASS';
    GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';"

log "slurmdbd"
cat >/etc/slurm/slurmdbd.conf <<EOF
$MARK
AuthType=auth/munge
DbdHost=localhost
SlurmUser=root
PidFile=$DIR/slurmdbd.pid
LogFile=$DIR/log/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=localhost
StorageUser=slurm
StoragePass=$DB_PASS
StorageLoc=slurm_acct_db
EOF
chmod 600 /etc/slurm/slurmdbd.conf

cat >/etc/slurm/slurm.conf <<EOF
$MARK
ClusterName=g2048ci
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
JobAcctGatherType=jobacct_gather/linux
MinJobAge=300
$NODE NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=$PARTITION Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF

slurmdbd
remember slurmdbd "$DIR/slurmdbd.pid"
wait_for 30 slurmdbd sacctmgr -n list cluster
sacctmgr -i add cluster g2048ci >/dev/null

log "slurmctld, slurmd"
slurmctld
remember slurmctld "$DIR/slurmctld.pid"
slurmd
remember slurmd "$DIR/slurmd.pid"
wait_for 30 "the node" bash -c "sinfo -h -N -o %t | grep -qx idle"

sacctmgr -i add account "$ACCOUNT" description="g2048 CI" >/dev/null
sacctmgr -i add user "$(id -un)" account="$ACCOUNT" >/dev/null
wait_for 20 "a test job" srun -A "$ACCOUNT" -p "$PARTITION" -t 1 true
log "up: partition $PARTITION, account $ACCOUNT; logs in $DIR/log; stop with .ci/slurm-down.sh"
