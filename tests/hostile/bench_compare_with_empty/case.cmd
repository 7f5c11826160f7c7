# run: tabula bench $NIM --seconds 0 --compare-with " "
# exit: 1
# stderr: --compare-with needs a command
# absent: decisions/game
