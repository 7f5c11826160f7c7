# run: tabula simulate rules --games 1
# exit: 1
# stderr: tabula::limit_reached
# stderr: this choice offers at least 1000000000 options
# at: rules/t.rules:9:5
