# `copies` on a grid's cell shifted the cell indices the grid relies on
# run: tabula check ruleset
# exit: 1
# stderr: tabula::bad_value
# stderr: a grid's cell cannot have copies
