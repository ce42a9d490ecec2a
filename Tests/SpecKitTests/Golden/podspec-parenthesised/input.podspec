Pod::Spec.new do |s|
  s.name = 'Payments'
  s.dependency('Core', '~> 1.0')
  s.dependency('Net')
  s.dependency("Log", ">= 0.1", "< 1.0")
end
