Pod::Spec.new do |s|
  s.name = 'Payments'
  s.dependency 'Core', '>= 1.0', '< 2.0'
  s.dependency 'Net', '>= 2.0',   '< 3.0', '!= 2.0.5'
end
