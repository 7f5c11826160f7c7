# `--variant ../x` is a path (it holds a slash), but not a variant .yaml file
# run: tabula check ruleset --variant ../x
# exit: 1
# stderr: tabula::unknown_file_type
# stderr: `../x` is not a .yaml file
