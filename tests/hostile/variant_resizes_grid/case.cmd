# a variant resizing a grid kept the old cells with the new width
# run: tabula check ruleset --variant big
# exit: 1
# stderr: tabula::bad_value
# stderr: the grid `board` is 4x3 already
