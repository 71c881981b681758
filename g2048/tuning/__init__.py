"""Generic black-box optimisers (NSGA-II, cross-entropy method); they know nothing about 2048."""
