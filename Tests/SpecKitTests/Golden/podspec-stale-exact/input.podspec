Pod::Spec.new do |s|
  s.name = 'Payments'
  s.dependency 'Core', '1.0.0'
  s.dependency 'Net', '= 1.9.9'
  s.dependency 'Log', '0.9.0'
end
