# run: tabula simulate rules --games 1
# exit: 1
# stderr: tabula::limit_reached
# stderr: listing the options of this choice ran more than 500000000 steps
# at: rules/t.rules:6:3
