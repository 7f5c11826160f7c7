# run: tabula check $NIM --variant study/out.yaml
# exit: 1
# stderr: tabula::path_outside
# stderr: outside the ruleset
# absent: most: 9
