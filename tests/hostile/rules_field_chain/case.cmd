# 300 field accesses in a row (`red.bonus.bonus...`)
# run: tabula check ruleset
# exit: 1
# stderr: tabula::too_deep
# stderr: nested more than 256 levels deep
