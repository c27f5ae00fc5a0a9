"""Speed benchmarks: scripts that print their figures (see docs/performance.md)."""
