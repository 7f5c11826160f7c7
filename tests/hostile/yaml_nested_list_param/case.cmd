# a list inside a list parameter read as 0, silently
# run: tabula check ruleset
# exit: 1
# stderr: tabula::bad_value
# stderr: expected a number
