# an `else if` chain of 200, each `else if` nests in the `if` before it
# run: tabula check ruleset
# exit: 1
# stderr: tabula::too_deep
# stderr: nested more than 64 deep
