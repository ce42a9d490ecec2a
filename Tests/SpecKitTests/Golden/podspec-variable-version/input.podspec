core_version = '~> 1.0'
Pod::Spec.new do |s|
  s.name = 'Payments'
  s.version = '2.3.0'
  s.dependency 'Core', core_version
  s.dependency 'Log', s.version.to_s
  s.dependency 'Net', '~> 2.0'
end
