# a variant removes one copy of an item with `copies` (it could not, removals ran before copies were made)
# run: tabula check ruleset --variant fewer
# exit: 0
# stdout: colour (3)
