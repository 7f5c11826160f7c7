# a file named with `..` was read
# run: tabula check ruleset
# exit: 1
# stderr: tabula::path_outside
# stderr: is outside the ruleset
