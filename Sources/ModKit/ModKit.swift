import GitKit
import YAMLKit
