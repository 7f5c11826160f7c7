# the smallest and the largest integers are read
# run: tabula check ruleset
# exit: 0
# stdout: loads and checks
