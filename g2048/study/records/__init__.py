"""The study's records, beside its science (config, objectives, methods, stages): the integrity
of its results (what each job wrote, by SHA-256, and the digests another machine's run is checked
against), where each result was made (provenance), the jobs' logs, and what a study costs (the
job cost of each job, the run-time plan)."""
