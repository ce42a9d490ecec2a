Pod::Spec.new do |s|
  s.name = 'Payments'
  s.dependency 'Core', '1.0.1', :configurations => ['Debug']
  s.dependency 'Net', '2.0.0', configurations: ['Release']
  s.dependency 'Log', '0.9.0', :configurations => %w[Debug Beta] # debug only
end
