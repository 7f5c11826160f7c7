# a variant declaring a field again added a second field of the same name; it retypes it
# run: tabula check ruleset --variant flags
# exit: 0
# stdout: loads and checks
