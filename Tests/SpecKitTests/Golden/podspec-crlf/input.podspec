Pod::Spec.new do |s|
  s.name = 'Payments' # name
  s.dependency 'Core' # loose
  s.dependency 'Net', '>= 1.0',
                      '< 3.0'
end
