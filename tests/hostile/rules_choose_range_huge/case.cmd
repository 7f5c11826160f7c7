# a choice over 1..=1000000000 tried to allocate 16 GB (22 s, then an abort) when played
# run: tabula check ruleset
# exit: 1
# stderr: tabula::too_large
# stderr: a choice of 1,000,000,000 numbers
