# a range dimension ending beyond 64 bits was read as the largest integer
# run: tabula check ruleset
# exit: 1
# stderr: tabula::number_out_of_range
