# `copies, 300000000` aborted on memory
# run: tabula check ruleset
# exit: 1
# stderr: tabula::too_large
# stderr: `copies:` must be a whole number from 1 to 65536
