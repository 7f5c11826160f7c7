# seat names beyond the most players were dropped silently
# run: tabula check ruleset
# exit: 1
# stderr: is never seated
