# `copies, -3` counted as 1, silently
# run: tabula check ruleset
# exit: 1
# stderr: tabula::bad_value
# stderr: not `-3`
