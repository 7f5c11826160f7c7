# 300 `if` statements one after the other do not nest, accepted
# run: tabula check ruleset
# exit: 0
# stdout: loads and checks
