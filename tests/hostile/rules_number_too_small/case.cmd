# one below the smallest integer
# run: tabula check ruleset
# exit: 1
# stderr: tabula::number_out_of_range
# stderr: the number 9223372036854775809 is beyond
