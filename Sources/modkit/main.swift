import ModKitCLI
