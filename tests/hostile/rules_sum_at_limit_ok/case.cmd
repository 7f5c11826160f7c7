# a sum of 250 terms is within the limit, accepted
# run: tabula check ruleset
# exit: 0
# stdout: loads and checks
