Pod::Spec.new do |s|
  s.name = 'Payments' # name
  s.dependency 'Core', '1.0.1' # loose
  s.dependency 'Net', '2.0.0'
end
