# a grid of 2^32 by 2^32 cells, the product overflowed to 0 and passed the check
# run: tabula check ruleset
# exit: 1
# stderr: tabula::too_large
# stderr: a grid of 4,294,967,296 by 4,294,967,296 cells
