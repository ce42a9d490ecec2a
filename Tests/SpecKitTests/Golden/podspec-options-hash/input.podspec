Pod::Spec.new do |s|
  s.name = 'Payments'
  s.dependency 'Core', :configurations => ['Debug']
  s.dependency 'Net', '~> 2.0', configurations: ['Release']
  s.dependency 'Log', :configurations => %w[Debug Beta] # debug only
end
