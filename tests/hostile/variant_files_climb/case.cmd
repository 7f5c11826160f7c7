# a variant's `files` climbing out of the ruleset
# run: tabula check ruleset --variant v
# exit: 1
# stderr: tabula::path_outside
# stderr: is outside the ruleset
