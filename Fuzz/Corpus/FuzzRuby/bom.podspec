Pod::Spec.new do |s|
  s.name = 'Bom'
  s.version = '1.0.0'
  s.dependency 'Core', '~> 1.0'
end
