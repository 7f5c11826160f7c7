# run: tabula simulate rules --games 1
# exit: 1
# stderr: tabula::limit_reached
# stderr: an option being tried wrote more than 4194304 words of the state
# at: rules/t.rules:10:17
