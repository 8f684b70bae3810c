"""`make bench`: the project's performance goals, measured as ratios within one run."""
