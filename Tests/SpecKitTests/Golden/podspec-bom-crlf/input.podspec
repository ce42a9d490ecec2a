Pod::Spec.new do |spec|
  spec.name    = "Feature"
  spec.version = "2.0.0"
  spec.dependency "Core"
end
