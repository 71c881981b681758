"""The report: statistics, tables, figures and the claims table. It reads result files and
never plays a game."""
