# a list of ids under a grid kind appended non-cells with coordinates outside the grid, silently
# run: tabula check ruleset
# exit: 1
# stderr: tabula::unknown_item
# stderr: `a` is not a cell of the grid `board`
