import Foundation
import ModKitCLI

exit(ModKitCLI.main(Array(CommandLine.arguments.dropFirst())))
