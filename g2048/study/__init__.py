"""The study: its configuration and schema, naming rules, the 2048 objectives of the tuners,
the pipeline's stages, selection of tuned weights, progress logs and result files. The
Snakemake scripts are thin adapters over this layer."""
