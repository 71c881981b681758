#!/usr/bin/env bash
# Stop the cluster that .ci/slurm-up.sh started: cancel its jobs, then stop every daemon it
# recorded in $G2048_SLURM_DIR/pids, last started first, by PID (TERM, then KILL after 20 s).
set -uo pipefail

DIR=${G2048_SLURM_DIR:-/tmp/g2048-slurm}
[[ -s $DIR/pids ]] || {
    echo "slurm-down: nothing recorded in $DIR/pids" >&2
    exit 0
}

scancel --user="$(id -un)" 2>/dev/null
tac "$DIR/pids" | while read -r name pid; do
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 80); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.25
    done
    if kill -0 "$pid" 2>/dev/null; then
        echo "slurm-down: $name ($pid) ignored TERM; killing it" >&2
        kill -KILL "$pid"
    fi
    echo "slurm-down: stopped $name ($pid)" >&2
done
: >"$DIR/pids"
