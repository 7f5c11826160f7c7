# run: tabula simulate rules --games 1
# exit: 1
# stderr: tabula::limit_reached
# stderr: the state's variables need more than the engine's limit of 16777216 words
# at: rules/t.rules:2:1
