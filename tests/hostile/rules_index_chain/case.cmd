# 300 indexings in a row (`won[p][p]...`)
# run: tabula check ruleset
# exit: 1
# stderr: tabula::too_deep
# stderr: nested more than 256 levels deep
