# a number of game.yaml beyond 64 bits
# run: tabula check ruleset
# exit: 1
# stderr: tabula::number_out_of_range
