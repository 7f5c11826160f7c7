# a chain of 200 conditional expressions `if a then b else if ...`
# run: tabula check ruleset
# exit: 1
# stderr: tabula::too_deep
# stderr: nested more than 64 deep
