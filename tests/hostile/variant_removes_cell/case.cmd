# removing a grid's cell shifted the cell indices the grid relies on
# run: tabula check ruleset --variant hole
# exit: 1
# stderr: tabula::bad_value
# stderr: the cells of the grid `board` cannot be removed
