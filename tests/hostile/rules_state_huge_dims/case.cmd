# a variable of 10^20 entries, `check` said "ok" with 7.7e18 state words (the product overflowed)
# run: tabula check ruleset
# exit: 1
# stderr: tabula::too_large
# stderr: `huge` takes 100,000,000,000,000,000,000 words of state
