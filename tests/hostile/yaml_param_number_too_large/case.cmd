# a parameter beyond 64 bits
# run: tabula check ruleset
# exit: 1
# stderr: tabula::number_out_of_range
# stderr: the number 99999999999999999999 is beyond the 64-bit range
