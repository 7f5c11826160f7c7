# `--variant ../x` reached ruleset/variants/../x.yaml
# run: tabula check ruleset --variant ../x
# exit: 1
# stderr: tabula::path_outside
# stderr: `../x` is not a variant name
