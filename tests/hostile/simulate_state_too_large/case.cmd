# run: tabula simulate rules --games 1
# exit: 1
# stderr: tabula::too_large
# stderr: `big` takes 10,000,000,000 words of state, more than 16,777,216
# at: rules/t.rules:2:5
