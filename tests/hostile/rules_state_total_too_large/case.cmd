# twenty variables of a million words each, reported once, at the first past the limit
# run: tabula check ruleset
# exit: 1
# stderr: tabula::too_large
# stderr: the state passes 16,777,216 words with `big16`
# stderr: 1 error found
