/// Every subcommand modkit knows, in the order `modkit --help` lists them.
enum Registry {
    static var commands: [any Command.Type] {
        [
            InitCommand.self,
            ListCommand.self,
            StatusCommand.self,
            SyncCommand.self,
            ForallCommand.self,
            AffectedCommand.self,
            StartCommand.self,
            BranchesCommand.self,
            PushCommand.self,
            AbandonCommand.self,
            PruneCommand.self,
            DevelopCommand.self,
            GraphCommand.self,
            TagCommand.self,
            CheckoutCommand.self,
            SnapshotsCommand.self,
            DiffCommand.self,
            PinCommand.self,
            GuardCommand.self,
            NewCommand.self,
            ReleaseCommand.self,
            APICommand.self,
            ExportCommand.self,
            DoctorCommand.self,
            CompletionCommand.self,
        ]
    }

    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.spec.name == name }
    }
}
