internal import CYAML
