# 256 parameters, the call instruction holds 255 (the count was truncated)
# run: tabula check ruleset
# exit: 1
# stderr: tabula::too_large
# stderr: `many` has more than 255 parameters
